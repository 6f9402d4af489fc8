// The same contrast computations as `contrast-bench core`, in C (gcc -O2), for comparison in
// the same run: (a) ratio from precomputed luminances, (b) ratio from 8-bit sRGB through a
// 256-entry linearization table, (c) hex parse + ratio.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint32_t state = 2463534242u;
static uint32_t next(void) { state ^= state << 13; state ^= state >> 17; state ^= state << 5; return state; }
static double seconds(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
static double ratio(double a, double b) { return a > b ? (a + 0.05) / (b + 0.05) : (b + 0.05) / (a + 0.05); }
static double decode(double v) { return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4); }
static int hexval(char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; }
static int parse_hex(const char *s, uint32_t *out) {
    if (s[0] != '#' || strlen(s) != 7) return 0;
    uint32_t v = 0;
    for (int i = 1; i < 7; i++) { int d = hexval(s[i]); if (d < 0) return 0; v = v << 4 | (uint32_t)d; }
    *out = v;
    return 1;
}

#define N 10000000
#define HEX 1000000
volatile double sink;

int main(void) {
    uint32_t *colors = malloc(sizeof(uint32_t) * 2 * N);
    double *lum = malloc(sizeof(double) * 2 * N);
    double table[256];
    for (int i = 0; i < 256; i++) table[i] = decode(i / 255.0);
    for (int i = 0; i < 2 * N; i++) colors[i] = next() & 0xFFFFFF;
    for (int i = 0; i < 2 * N; i++) {
        uint32_t c = colors[i];
        lum[i] = 0.2126 * table[c >> 16 & 0xFF] + 0.7152 * table[c >> 8 & 0xFF] + 0.0722 * table[c & 0xFF];
    }
    double times[7];
    for (int r = 0; r < 7; r++) {
        double t = seconds(), total = 0;
        for (int i = 0; i < 2 * N; i += 2) total += ratio(lum[i], lum[i + 1]);
        sink = total;
        times[r] = seconds() - t;
    }
    qsort(times, 7, sizeof(double), cmp);
    printf("C (a) ratio from luminances       %12d pairs in %9.4f s  %14.0f pairs/s  %7.2f ns each\n", N, times[3], N / times[3], times[3] / N * 1e9);
    for (int r = 0; r < 7; r++) {
        double t = seconds(), total = 0;
        for (int i = 0; i < 2 * N; i += 2) {
            uint32_t x = colors[i], y = colors[i + 1];
            double l1 = 0.2126 * table[x >> 16 & 0xFF] + 0.7152 * table[x >> 8 & 0xFF] + 0.0722 * table[x & 0xFF];
            double l2 = 0.2126 * table[y >> 16 & 0xFF] + 0.7152 * table[y >> 8 & 0xFF] + 0.0722 * table[y & 0xFF];
            total += ratio(l1, l2);
        }
        sink = total;
        times[r] = seconds() - t;
    }
    qsort(times, 7, sizeof(double), cmp);
    printf("C (b) ratio from 8-bit sRGB       %12d pairs in %9.4f s  %14.0f pairs/s  %7.2f ns each\n", N, times[3], N / times[3], times[3] / N * 1e9);
    char (*hex)[8] = malloc(8 * 2 * HEX);
    for (int i = 0; i < 2 * HEX; i++) snprintf(hex[i], 8, "#%06x", colors[i]);
    for (int r = 0; r < 3; r++) {
        double t = seconds(), total = 0;
        for (int i = 0; i < 2 * HEX; i += 2) {
            uint32_t x, y;
            if (parse_hex(hex[i], &x) && parse_hex(hex[i + 1], &y)) {
                double l1 = 0.2126 * table[x >> 16 & 0xFF] + 0.7152 * table[x >> 8 & 0xFF] + 0.0722 * table[x & 0xFF];
                double l2 = 0.2126 * table[y >> 16 & 0xFF] + 0.7152 * table[y >> 8 & 0xFF] + 0.0722 * table[y & 0xFF];
                total += ratio(l1, l2);
            }
        }
        sink = total;
        times[r] = seconds() - t;
    }
    qsort(times, 3, sizeof(double), cmp);
    printf("C (c) ratio from hex strings      %12d pairs in %9.4f s  %14.0f pairs/s  %7.2f ns each\n", HEX, times[1], HEX / times[1], times[1] / HEX * 1e9);
    return 0;
}
