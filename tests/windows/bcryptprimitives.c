/*
 * A test-only stand-in for Windows' bcryptprimitives.dll, for running
 * jiangjun.exe under Wine 8.0 (scripts/windows-build.sh).
 *
 * Rust's standard library (1.78 and later) gets its random numbers (the
 * seeds of HashMap) from ProcessPrng in bcryptprimitives.dll, which
 * Windows 10 and 11 have and Wine 8.0's copy of the DLL lacks, so the
 * program does not start. This DLL exports ProcessPrng on top of
 * RtlGenRandom (advapi32's SystemFunction036), which Wine has. It is put
 * beside the .exe in the test folder only: Windows users never need it,
 * and it is never part of a release.
 *
 * Build: x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll \
 *        bcryptprimitives.c -ladvapi32
 */
#include <windows.h>

/* RtlGenRandom's real name; declared here to need no more headers. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

/* Fills `data` with `length` random bytes; like Windows' own, it always
 * succeeds (TRUE), so a failure of RtlGenRandom ends the process rather
 * than hand back bytes that are not random. */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        /* RtlGenRandom takes a 32-bit length: fill in chunks. */
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            ExitProcess(3);
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
