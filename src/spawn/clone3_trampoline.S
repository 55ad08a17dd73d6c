/*
 * long brisk_clone3(struct clone_args *args, size_t size, int (*fn)(void *), void *arg)
 *
 * clone3 switches the child onto args->stack, so the child cannot return into
 * the C frame that made the call: it must start fresh on the new stack. This
 * trampoline makes the raw syscall; the parent gets the child's pid or
 * -errno, and the child calls fn(arg) and exits with its return value.
 * glibc (2.36) exports no clone3 wrapper, hence this file. Hidden: it is
 * libbrisk's own, never part of a shared libbrisk's ABI.
 */
#if defined(__x86_64__)
        .text
        .globl  brisk_clone3
        .hidden brisk_clone3
        .type   brisk_clone3, @function
brisk_clone3:
        .cfi_startproc
        mov     %rcx, %r8               /* arg: syscall clobbers rcx and r11 only */
        mov     %rdx, %r9               /* fn */
        mov     $435, %eax              /* __NR_clone3 */
        syscall
        test    %rax, %rax
        jz      1f
        ret                             /* parent: pid, or -errno */
1:
        .cfi_undefined rip
        xor     %ebp, %ebp              /* child: outermost frame on the new stack */
        and     $-16, %rsp
        mov     %r8, %rdi
        call    *%r9
        mov     %eax, %edi
        mov     $60, %eax               /* __NR_exit */
        syscall
        hlt
        .cfi_endproc
        .size   brisk_clone3, .-brisk_clone3
#elif defined(__aarch64__)
        .text
        .globl  brisk_clone3
        .hidden brisk_clone3
        .type   brisk_clone3, %function
brisk_clone3:
        mov     x10, x2                 /* fn */
        mov     x11, x3                 /* arg */
        mov     x8, #435                /* __NR_clone3 */
        svc     #0
        cbz     x0, 1f
        ret
1:
        mov     x29, xzr
        mov     x30, xzr
        mov     x0, x11
        blr     x10
        mov     x8, #93                 /* __NR_exit */
        svc     #0
        brk     #0
        .size   brisk_clone3, .-brisk_clone3
#endif
        .section .note.GNU-stack,"",%progbits
