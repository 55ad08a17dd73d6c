// brisk/export.h: what a shared libbrisk exports.
//
// libbrisk is compiled with -fvisibility=hidden, so its dynamic symbol table
// holds only what BRISK_EXPORT marks: the API of these headers. A class is
// marked whole, which exports its out-of-line members and, for exceptions
// and classes users derive from, the typeinfo and vtable that catch and
// dynamic_cast need across the library boundary; a free function is marked
// at its declaration. Inline and template code needs no mark: it is
// compiled into the caller.
#pragma once

#define BRISK_EXPORT __attribute__((visibility("default")))
// A member of an exported class that only the library itself calls and
// whose signature names one of its internal types: kept out of the ABI.
#define BRISK_HIDDEN __attribute__((visibility("hidden")))
