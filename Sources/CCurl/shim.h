#ifndef TOKENVEND_CCURL_SHIM_H
#define TOKENVEND_CCURL_SHIM_H
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper per argument
// type, so each option gets exactly the C type libcurl reads for it.

/// CURL_GLOBAL_DEFAULT, a macro built from other macros.
static inline long tv_curl_global_default(void) { return CURL_GLOBAL_DEFAULT; }

static inline CURLcode tv_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode tv_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// For string, `curl_slist *` and `void *` options (libcurl copies strings, not lists or user data).
static inline CURLcode tv_curl_setopt_ptr(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION.
static inline CURLcode tv_curl_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// CURLOPT_READFUNCTION: the upload's bytes (Mail's SMTP message).
static inline CURLcode tv_curl_setopt_read_callback(CURL *handle, curl_read_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}

static inline CURLcode tv_curl_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode tv_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// For `char *` infos (CURLINFO_REDIRECT_URL): the string belongs to the handle, valid until the next transfer.
static inline CURLcode tv_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
