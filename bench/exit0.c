/* exit0: a static program with no libc that exits at once. Spawning it
 * measures what a spawn method itself costs, without the dynamic loading
 * that makes up most of /bin/true's time. */
void _start(void) {
#if defined(__x86_64__)
  __asm__ volatile("mov $60, %eax\n\txor %edi, %edi\n\tsyscall");
#elif defined(__aarch64__)
  __asm__ volatile("mov x8, #93\n\tmov x0, #0\n\tsvc #0");
#endif
  for (;;) {
  }
}
