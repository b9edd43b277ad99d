#include "lf_hash.h"

#include <string.h>

/* XXH64: four 64-bit lanes over 32-byte stripes, then the tail, then an
 * avalanche; several GB/s, so hashing what a scan reads costs far less than
 * reading it. Byte order: lanes are read little-endian on every host, so a
 * digest means the same thing everywhere. */

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static uint64_t rd64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static uint64_t rd32(const unsigned char *p) {
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
}

static uint64_t round64(uint64_t acc, uint64_t in) {
    acc += in * P2;
    acc = rotl(acc, 31);
    return acc * P1;
}

static uint64_t merge(uint64_t acc, uint64_t v) {
    acc ^= round64(0, v);
    return acc * P1 + P4;
}

static uint64_t stripes(const unsigned char **pp, const unsigned char *end, uint64_t seed) {
    const unsigned char *p = *pp;
    uint64_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
    for (; end - p >= 32; p += 32) {
        v1 = round64(v1, rd64(p));
        v2 = round64(v2, rd64(p + 8));
        v3 = round64(v3, rd64(p + 16));
        v4 = round64(v4, rd64(p + 24));
    }
    *pp = p;
    uint64_t h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
    h = merge(h, v1);
    h = merge(h, v2);
    h = merge(h, v3);
    return merge(h, v4);
}

uint64_t lf_hash64(const void *data, size_t len, uint64_t seed) {
    const unsigned char *p = data, *end = p + len;
    uint64_t h = len >= 32 ? stripes(&p, end, seed) : seed + P5;
    h += (uint64_t)len;
    for (; end - p >= 8; p += 8) {
        h ^= round64(0, rd64(p));
        h = rotl(h, 27) * P1 + P4;
    }
    if (end - p >= 4) {
        h ^= rd32(p) * P1;
        h = rotl(h, 23) * P2 + P3;
        p += 4;
    }
    for (; p < end; p++) {
        h ^= (uint64_t)*p * P5;
        h = rotl(h, 11) * P1;
    }
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    h ^= h >> 32;
    return h;
}
