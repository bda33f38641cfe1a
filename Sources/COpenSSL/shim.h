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
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>


// Builds a P-256 key (public, or key pair when priv != NULL) with EVP_PKEY_fromdata. In C because
// OSSL_PARAM_BLD keeps the pointers it is given (names, buffers) until OSSL_PARAM_BLD_to_param, which Swift's
// temporary C strings and buffer pointers do not outlive. NULL when OpenSSL refuses the key (e.g. a point not on
// the curve, a coordinate not below p) or fails.
static inline EVP_PKEY *tokenvend_pkey_p256(const unsigned char *point, size_t point_len,
                                            const unsigned char *priv, size_t priv_len) {
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *context = NULL;
    EVP_PKEY *pkey = NULL;
    BIGNUM *scalar = NULL;
    if (builder == NULL
        || !OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0)
        || !OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, point_len))
        goto done;
    if (priv != NULL) {
        // A secure BIGNUM makes the builder keep the scalar in the secure heap.
        scalar = BN_secure_new();
        if (scalar == NULL || BN_bin2bn(priv, (int)priv_len, scalar) == NULL
            || !OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_PRIV_KEY, scalar))
            goto done;
    }
    params = OSSL_PARAM_BLD_to_param(builder);
    context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (params == NULL || context == NULL || EVP_PKEY_fromdata_init(context) != 1) goto done;
    if (EVP_PKEY_fromdata(context, &pkey, priv != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) != 1)
        pkey = NULL;
done:
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_free(params);
    BN_clear_free(scalar);
    OSSL_PARAM_BLD_free(builder);
    return pkey;
}

// Builds an RSA public key from its modulus and exponent (big-endian); NULL when refused. In C for the same
// reason as tokenvend_pkey_p256.
static inline EVP_PKEY *tokenvend_pkey_rsa_public(const unsigned char *n, size_t n_len,
                                                  const unsigned char *e, size_t e_len) {
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *context = NULL;
    EVP_PKEY *pkey = NULL;
    BIGNUM *modulus = BN_bin2bn(n, (int)n_len, NULL);
    BIGNUM *exponent = BN_bin2bn(e, (int)e_len, NULL);
    if (builder == NULL || modulus == NULL || exponent == NULL
        || !OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, modulus)
        || !OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, exponent))
        goto done;
    params = OSSL_PARAM_BLD_to_param(builder);
    context = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    if (params == NULL || context == NULL || EVP_PKEY_fromdata_init(context) != 1) goto done;
    if (EVP_PKEY_fromdata(context, &pkey, EVP_PKEY_PUBLIC_KEY, params) != 1) pkey = NULL;
done:
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_free(params);
    BN_free(modulus);
    BN_free(exponent);
    OSSL_PARAM_BLD_free(builder);
    return pkey;
}
// Verifies `leaf` through `intermediates` (count of them, untrusted) to `root`, the only trust anchor, at
// `unix_time`: an X509_STORE holding just `root` (no default paths, so no system trust store; no CRL flags, so no
// CRL lookups), the check time fixed, chains of at most `max_depth` intermediates. Returns 1 when the chain
// verifies; otherwise 0 with *error set to OpenSSL's X509_V_ERR_* code (-1 when OpenSSL itself failed). In C
// because STACK_OF(X509) is reached only through macros.
static inline int tokenvend_x509_verify_chain(X509 *leaf, X509 *const *intermediates, int count, X509 *root,
                                              int64_t unix_time, int max_depth, int *error) {
    X509_STORE *store = X509_STORE_new();
    X509_STORE_CTX *context = X509_STORE_CTX_new();
    STACK_OF(X509) *untrusted = sk_X509_new_null();
    int result = 0;
    *error = -1;
    if (store == NULL || context == NULL || untrusted == NULL || X509_STORE_add_cert(store, root) != 1) goto done;
    for (int index = 0; index < count; index++) {
        if (sk_X509_push(untrusted, intermediates[index]) <= 0) goto done;
    }
    if (X509_STORE_CTX_init(context, store, leaf, untrusted) != 1) goto done;
    X509_STORE_CTX_set_time(context, 0, (time_t)unix_time);
    X509_STORE_CTX_set_depth(context, max_depth);
    result = X509_verify_cert(context) == 1;
    *error = result ? X509_V_OK : X509_STORE_CTX_get_error(context);
done:
    X509_STORE_CTX_free(context);
    sk_X509_free(untrusted);  // the certificates stay owned by the caller
    X509_STORE_free(store);
    return result;
}

// XN_FLAG_RFC2253, a macro Swift does not import.
static inline unsigned long tokenvend_xn_flag_rfc2253(void) { return XN_FLAG_RFC2253; }

// Seconds since 1970 of an ASN1_TIME (a certificate's notBefore/notAfter); 0 when OpenSSL fails.
static inline int tokenvend_asn1_time_unix(const ASN1_TIME *time, int64_t *seconds) {
    struct tm parts;
    if (time == NULL || ASN1_TIME_to_tm(time, &parts) != 1) return 0;
    int days = 0, rest = 0;
    ASN1_TIME *epoch = ASN1_TIME_set(NULL, 0);
    if (epoch == NULL) return 0;
    int ok = ASN1_TIME_diff(&days, &rest, epoch, time);
    ASN1_TIME_free(epoch);
    if (ok != 1) return 0;
    *seconds = (int64_t)days * 86400 + rest;
    return 1;
}
#endif
