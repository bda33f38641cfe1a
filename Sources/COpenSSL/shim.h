#ifndef TOKENVEND_COPENSSL_SHIM_H
#define TOKENVEND_COPENSSL_SHIM_H
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

// Selections for EVP_PKEY_fromdata: macros built from other macros, which Swift does not import.
static inline int tokenvend_evp_pkey_public_key_selection(void) { return EVP_PKEY_PUBLIC_KEY; }
static inline int tokenvend_evp_pkey_keypair_selection(void) { return EVP_PKEY_KEYPAIR; }
#endif
