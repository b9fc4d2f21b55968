#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
static unsigned long n;
extern void *__libc_calloc(size_t, size_t);
void *calloc(size_t a, size_t b) { n++; return __libc_calloc(a, b); }
__attribute__((destructor)) static void done(void) { fprintf(stderr, "CALLOCS %lu\n", n); }
