/* Small shared helpers: content hash, jitter PRNG, identity comparison, random
 * hex names and tokens. */
#include "lockrt_internal.h"

uint64_t lockrt__fnv1a(const void *data, size_t len, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t lockrt__splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

bool lockrt__identity_equal(const lockrt_identity *a, const lockrt_identity *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime_ns == b->mtime_ns && a->content_hash == b->content_hash;
}

int lockrt__random_hex(char *out, size_t nbytes)
{
    static const char digits[] = "0123456789abcdef";
    unsigned char raw[32];
    if (nbytes > sizeof raw)
        return LOCKRT_EINVAL;
    int rc = lockrt__random_bytes(raw, nbytes);
    if (rc != LOCKRT_OK)
        return rc;
    for (size_t i = 0; i < nbytes; i++) {
        out[2 * i] = digits[raw[i] >> 4];
        out[2 * i + 1] = digits[raw[i] & 15];
    }
    out[2 * nbytes] = '\0';
    return LOCKRT_OK;
}
