// The common-password list, embedded at build time from common-passwords.txt (see README.md beside it).
#ifndef CCOMMONPASSWORDS_H
#define CCOMMONPASSWORDS_H

#include <stddef.h>

/// The bytes of common-passwords.txt: one lowercase password a line, each line ended by a line feed, most
/// common first. Not NUL-terminated; read exactly `tokenvend_common_passwords_size()` bytes.
const unsigned char *tokenvend_common_passwords(void);

/// The number of bytes `tokenvend_common_passwords()` points to.
size_t tokenvend_common_passwords_size(void);

#endif
