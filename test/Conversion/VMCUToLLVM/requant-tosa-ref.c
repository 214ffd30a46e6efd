/*===- requant-tosa-ref.c - host reference for vmcu.requantize -------------===*
 *
 * Host side of requant-tosa-qemu.mlir. Three commands:
 *
 *   gen N cases.bin        writes N 16-byte records {value, multiplier,
 *                          shift, 0} (int32, little endian): edge cases, then
 *                          seeded random ones up to N;
 *   gen-wide, gen-bounded, gen-narrow N cases.bin
 *                          the same within what vmcu.requantize's
 *                          wide_shift, bounded_value and narrow_value
 *                          promise (see min_shift below);
 *   ref cases.bin out.bin  writes the 16 expected result bytes per record:
 *                          two int32 (variants 0 and 1 below), then eight
 *                          int8 (variants 2..9), and prints coverage counts;
 *   check cases.bin out.bin
 *                          compares a target's output with the reference
 *                          and lists the differing cases.
 *
 * The arithmetic is TOSA 1.0 RESCALE with scale32 = true: apply_scale_32
 * transcribed from the specification (int64, round = 1 << (shift - 1),
 * +/- 1 << 30 when double rounding and shift > 31, arithmetic shift right),
 * then + output_zp and the clamp. Inside the specification's REQUIREs
 * (multiplier >= 0, 2 <= shift <= 62, -2^(shift-1) <= value < 2^(shift-1),
 * and the sums fit int32) every int32 conversion below is exact. Outside
 * them TOSA leaves the result unpredictable; vmcu defines it as the same
 * formula with each int32 step wrapping, which is what is compared there.
 *===----------------------------------------------------------------------===*/

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECORD_BYTES 16

/* Must match the vmcu.requantize attributes of requant-tosa-qemu.mlir, in
 * the order of the result bytes. */
struct variant {
  int32_t input_zp, output_zp, min, max;
  bool double_round, i8;
};
static const struct variant kVariants[] = {
    {0, 0, INT32_MIN, INT32_MAX, false, false},
    {0, 0, INT32_MIN, INT32_MAX, true, false},
    {0, 0, -128, 127, false, true},
    {0, 0, -128, 127, true, true},
    {0, -128, -128, 127, true, true},
    {0, 127, -128, 127, false, true},
    {5, -3, -100, 100, true, true},
    {-7, 0, 0, 127, false, true},
    {-128, 10, -20, 20, false, true},
    {127, -1, -128, 0, true, true},
};
#define NUM_VARIANTS (sizeof(kVariants) / sizeof(kVariants[0]))

static int32_t wrap32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

/* TOSA 1.0, "Scaling helper functions", apply_scale_32. */
static int32_t apply_scale_32(int32_t value, int32_t multiplier, int8_t shift,
                              bool double_round) {
  int64_t round = (int64_t)1 << (shift - 1);
  if (double_round) {
    if (shift > 31 && value >= 0)
      round += 1 << 30;
    if (shift > 31 && value < 0)
      round -= 1 << 30;
  }
  int64_t result = (int64_t)value * multiplier + round;
  result = result >> shift;
  return wrap32(result);
}

/* The REQUIREs of apply_scale_32. */
static bool apply_scale_32_defined(int64_t value, int32_t multiplier,
                                   int32_t shift) {
  return multiplier >= 0 && shift >= 2 && shift <= 62 &&
         value >= -((int64_t)1 << (shift - 1)) &&
         value < ((int64_t)1 << (shift - 1));
}

/* RESCALE of one value for one variant; *defined tells whether every
 * REQUIRE of the specification held. */
static int32_t rescale(int32_t in, int32_t multiplier, int32_t shift,
                       const struct variant *v, bool *defined) {
  int64_t value = (int64_t)in - v->input_zp;
  *defined = value == wrap32(value) &&
             apply_scale_32_defined(value, multiplier, shift);
  int32_t scaled =
      apply_scale_32(wrap32(value), multiplier, (int8_t)shift, v->double_round);
  int64_t result = (int64_t)scaled + v->output_zp;
  *defined = *defined && result == wrap32(result);
  result = wrap32(result);
  if (result < v->min)
    result = v->min;
  if (result > v->max)
    result = v->max;
  return (int32_t)result;
}

static void put32(uint8_t *p, int32_t v) {
  uint32_t u = (uint32_t)v;
  for (int i = 0; i < 4; ++i)
    p[i] = (uint8_t)(u >> (8 * i));
}

static int32_t get32(const uint8_t *p) {
  uint32_t u = 0;
  for (int i = 0; i < 4; ++i)
    u |= (uint32_t)p[i] << (8 * i);
  return (int32_t)u;
}

/*--- gen ------------------------------------------------------------------*/

static const int32_t kShifts[] = {1, 2, 30, 31, 32, 33, 40, 62};
static const int32_t kMultipliers[] = {0, 1, 3, 1 << 30, INT32_MAX};
static const int32_t kValues[] = {INT32_MIN, INT32_MIN + 1, -(1 << 30), -3,
                                  -2, -1, 0, 1, 2, 3, 1 << 30, INT32_MAX - 1,
                                  INT32_MAX};
#define COUNT(a) (sizeof(a) / sizeof(a[0]))

static uint8_t *records;
static long num_records, capacity;
/* Shifts generated: [1, 62]; [32, 62] for `gen-wide` and `gen-bounded`
 * (vmcu.requantize's wide_shift promises shift >= 32); [9, 31] for
 * `gen-narrow` (narrow_value promises shift <= 31 and |value - input_zp|
 * * 2^(32 - shift) < 2^31). */
static int32_t min_shift = 1, max_shift = 62;
/* `gen-narrow` generates int8 values only: less any variant's input zero
 * point (an int8 too) they stay within 255 in magnitude. */
static bool int8_values = false;
/* Values generated are below this in magnitude: `gen-bounded` keeps
 * |value - input_zp| < 2^30 for every variant's input zero point (at most
 * 128), as vmcu.requantize's bounded_value promises, except with a zero
 * multiplier, whose result needs no bound (vmcu-tile bounds only the
 * channels it scales by a nonzero multiplier). */
static int64_t max_abs_value = (int64_t)1 << 32;

static void add(int64_t value, int32_t multiplier, int32_t shift) {
  if (value != wrap32(value) || shift < min_shift || shift > max_shift ||
      (int8_values && (value < INT8_MIN || value > INT8_MAX)) ||
      (llabs(value) >= max_abs_value && multiplier != 0))
    return;
  if (num_records == capacity) {
    fprintf(stderr, "requant-tosa-ref: more than %ld edge cases\n", capacity);
    exit(1);
  }
  uint8_t *r = records + num_records++ * RECORD_BYTES;
  put32(r, (int32_t)value);
  put32(r + 4, multiplier);
  put32(r + 8, shift);
  put32(r + 12, 0);
}

static void gen(long n) {
  capacity = n;
  records = calloc((size_t)n, RECORD_BYTES);
  /* Every value x multiplier x shift. */
  for (size_t s = 0; s < COUNT(kShifts); ++s)
    for (size_t m = 0; m < COUNT(kMultipliers); ++m)
      for (size_t v = 0; v < COUNT(kValues); ++v)
        add(kValues[v], kMultipliers[m], kShifts[s]);
  /* Around the rounding points: value * multiplier at odd multiples of
   * 2^(shift-1) (ties of the single rounding) and 2^(shift-1) -/+ 2^30
   * away from them (ties once double rounding adds +/- 2^30), both signs. */
  for (size_t s = 0; s < COUNT(kShifts); ++s) {
    int32_t shift = kShifts[s];
    int64_t half = (int64_t)1 << (shift - 1);
    int64_t targets[] = {half,      3 * half,  -half,    -3 * half,
                         half - (1 << 30), -half + (1 << 30)};
    for (size_t m = 1; m < COUNT(kMultipliers); ++m)
      for (size_t t = 0; t < COUNT(targets); ++t) {
        int64_t v = targets[t] / kMultipliers[m];
        for (int64_t d = -1; d <= 1; ++d)
          add(v + d, kMultipliers[m], shift);
      }
  }
  /* Ties of int8 values: +/- 2^j times an odd multiple of 2^(shift-1-j). */
  for (int32_t shift = min_shift; int8_values && shift <= max_shift; ++shift)
    for (int32_t j = 0; j < 8 && j < shift; ++j)
      for (int64_t odd = 1; odd <= 3; odd += 2) {
        int64_t multiplier = odd << (shift - 1 - j);
        if (multiplier > INT32_MAX)
          continue;
        add((int64_t)1 << j, (int32_t)multiplier, shift);
        add(-((int64_t)1 << j), (int32_t)multiplier, shift);
      }
  /* Seeded random cases fill the rest (xorshift32). */
  uint32_t state = 0x2545F491u;
  while (num_records < n) {
    uint32_t draw[3];
    for (int i = 0; i < 3; ++i) {
      state ^= state << 13;
      state ^= state >> 17;
      state ^= state << 5;
      draw[i] = state;
    }
    int32_t value = int8_values ? (int8_t)draw[0] : (int32_t)draw[0];
    add(value, (int32_t)(draw[1] >> 1),
        min_shift + (int32_t)(draw[2] % (uint32_t)(max_shift + 1 - min_shift)));
  }
}

/*--- ref and check ----------------------------------------------------------*/

/* The expected result bytes of one record. */
static void expect(const uint8_t *rec, uint8_t *result, long *defined) {
  int32_t value = get32(rec), multiplier = get32(rec + 4);
  int32_t shift = get32(rec + 8);
  for (size_t k = 0; k < NUM_VARIANTS; ++k) {
    bool ok;
    int32_t r = rescale(value, multiplier, shift, &kVariants[k], &ok);
    if (kVariants[k].i8)
      result[8 + (k - 2)] = (uint8_t)(int8_t)r;
    else
      put32(result + 4 * k, r);
    *defined += ok;
  }
}

/* Compares `actual_path` with the reference and lists the differences. */
static int check(const char *in_path, const char *actual_path) {
  FILE *in = fopen(in_path, "rb");
  FILE *actual = fopen(actual_path, "rb");
  if (!in || !actual) {
    fprintf(stderr, "requant-tosa-ref: cannot open files\n");
    return 1;
  }
  uint8_t rec[RECORD_BYTES], want[RECORD_BYTES], got[RECORD_BYTES];
  long index = 0, mismatches = 0, defined = 0;
  while (fread(rec, 1, RECORD_BYTES, in) == RECORD_BYTES) {
    if (fread(got, 1, RECORD_BYTES, actual) != RECORD_BYTES) {
      printf("requant: output ends at case %ld\n", index);
      return 1;
    }
    expect(rec, want, &defined);
    for (size_t k = 0; k < NUM_VARIANTS; ++k) {
      size_t at = kVariants[k].i8 ? 8 + (k - 2) : 4 * k;
      size_t len = kVariants[k].i8 ? 1 : 4;
      if (!memcmp(want + at, got + at, len))
        continue;
      int32_t w = kVariants[k].i8 ? (int8_t)want[at] : get32(want + at);
      int32_t g = kVariants[k].i8 ? (int8_t)got[at] : get32(got + at);
      if (++mismatches <= 20)
        printf("requant: case %ld variant %zu: value=%d multiplier=%d "
               "shift=%d: expected %d, got %d\n",
               index, k, get32(rec), get32(rec + 4), get32(rec + 8), w, g);
    }
    ++index;
  }
  printf("requant: checked=%ld mismatches=%ld\n", index, mismatches);
  return mismatches != 0;
}

static int ref(const char *in_path, const char *out_path) {
  FILE *in = fopen(in_path, "rb");
  FILE *out = fopen(out_path, "wb");
  if (!in || !out) {
    fprintf(stderr, "requant-tosa-ref: cannot open files\n");
    return 1;
  }
  uint8_t rec[RECORD_BYTES];
  long cases = 0, defined = 0, negative_ties = 0, double_round_ties = 0;
  long shift_seen[64] = {0};
  while (fread(rec, 1, RECORD_BYTES, in) == RECORD_BYTES) {
    int32_t value = get32(rec), multiplier = get32(rec + 4);
    int32_t shift = get32(rec + 8);
    if (shift < 1 || shift > 62) {
      fprintf(stderr, "requant-tosa-ref: shift %d out of [1, 62]\n", shift);
      return 1;
    }
    uint8_t result[RECORD_BYTES];
    expect(rec, result, &defined);
    cases += NUM_VARIANTS;
    fwrite(result, 1, RECORD_BYTES, out);
    /* Coverage: exact ties of the single and of the double rounding. */
    int64_t product = (int64_t)value * multiplier;
    int64_t mask = ((int64_t)1 << shift) - 1, half = (int64_t)1 << (shift - 1);
    if (value < 0 && (product & mask) == half)
      ++negative_ties;
    if (shift > 31 &&
        ((product + (value >= 0 ? 1 : -1) * ((int64_t)1 << 30)) & mask) ==
            half)
      ++double_round_ties;
    ++shift_seen[shift];
  }
  fclose(out);
  fclose(in);
  long shifts = 0;
  for (int s = 1; s <= 62; ++s)
    shifts += shift_seen[s] != 0;
  printf("requant: cases=%ld defined=%ld negative_ties=%ld "
         "double_round_ties=%ld distinct_shifts=%ld\n",
         cases, defined, negative_ties, double_round_ties, shifts);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && (!strcmp(argv[1], "gen-wide") ||
                    !strcmp(argv[1], "gen-bounded")))
    min_shift = 32;
  if (argc == 4 && !strcmp(argv[1], "gen-bounded"))
    max_abs_value = ((int64_t)1 << 30) - 128;
  if (argc == 4 && !strcmp(argv[1], "gen-narrow")) {
    min_shift = 9;
    max_shift = 31;
    int8_values = true;
  }
  if (argc == 4 && (!strcmp(argv[1], "gen") || !strcmp(argv[1], "gen-wide") ||
                    !strcmp(argv[1], "gen-bounded") ||
                    !strcmp(argv[1], "gen-narrow"))) {
    gen(strtol(argv[2], NULL, 10));
    FILE *f = fopen(argv[3], "wb");
    if (!f || fwrite(records, RECORD_BYTES, (size_t)num_records, f) !=
                  (size_t)num_records) {
      fprintf(stderr, "requant-tosa-ref: cannot write %s\n", argv[3]);
      return 1;
    }
    fclose(f);
    return 0;
  }
  if (argc == 4 && !strcmp(argv[1], "ref"))
    return ref(argv[2], argv[3]);
  if (argc == 4 && !strcmp(argv[1], "check"))
    return check(argv[2], argv[3]);
  fprintf(stderr, "usage: %s gen|gen-wide|gen-bounded|gen-narrow N cases.bin | "
                  "ref cases.bin out.bin | check cases.bin out.bin\n",
          argv[0]);
  return 2;
}
