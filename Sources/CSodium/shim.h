#ifndef TOKENVEND_CSODIUM_SHIM_H
#define TOKENVEND_CSODIUM_SHIM_H
#include <sodium.h>
#endif
