#ifndef TOKENVEND_CUNISTRING_SHIM_H
#define TOKENVEND_CUNISTRING_SHIM_H
#include <uninorm.h>

// The normalisation forms are the addresses of libunistring's own globals, which Swift cannot take: these
// hand them over.
static inline uninorm_t tokenvend_uninorm_nfc(void) { return UNINORM_NFC; }
static inline uninorm_t tokenvend_uninorm_nfkc(void) { return UNINORM_NFKC; }
#endif
