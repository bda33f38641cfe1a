// Embeds common-passwords.txt in the binary at build time (C23 #embed, clang 19 or later): the list is data in
// its own file, yet the executable carries it, so no run-time path can be wrong. A missing file fails the build;
// the entry count is checked by PasswordRulesTests. The compiler's dependency file names the .txt, so editing it
// rebuilds this file.
#include "CCommonPasswords.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char list[] = {
#embed "common-passwords.txt"
};

// 10,000 entries of 1 to 18 bytes plus a line feed each: far outside these bounds, the file is not the list.
_Static_assert(sizeof list > 50000 && sizeof list < 200000, "common-passwords.txt is not the expected list");

const unsigned char *tokenvend_common_passwords(void) { return list; }

size_t tokenvend_common_passwords_size(void) { return sizeof list; }
