/* lf_hash: a fast non-cryptographic 64-bit hash of bytes (the XXH64 algorithm,
 * written here from its published description). The result cache keys file
 * contents and its own configuration with it (lf_cache.h), and checks its
 * index against corruption. Not for adversarial inputs. */
#ifndef LF_HASH_H
#define LF_HASH_H

#include <stddef.h>
#include <stdint.h>

uint64_t lf_hash64(const void *data, size_t len, uint64_t seed);

#endif
