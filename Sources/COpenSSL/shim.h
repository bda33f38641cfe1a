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
#endif
