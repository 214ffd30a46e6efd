/* edges.c - the float edges of a model header (vmcuc --header), on the
 * host: `edges quantize IN.f32 OUT.i8` runs vmcu_quantize_input over a file
 * of floats, `edges dequantize IN.i8 OUT.f32` vmcu_dequantize_output over a
 * file of int8. Build it with -include MODEL.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *readAll(const char *path, long *bytes) {
  FILE *f = fopen(path, "rb");
  if (!f || fseek(f, 0, SEEK_END) != 0 || (*bytes = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0)
    exit(2);
  void *data = malloc(*bytes ? *bytes : 1);
  if (!data || fread(data, 1, *bytes, f) != (size_t)*bytes)
    exit(2);
  fclose(f);
  return data;
}

static void writeAll(const char *path, const void *data, size_t bytes) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, bytes, f) != bytes || fclose(f) != 0)
    exit(2);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s quantize|dequantize IN OUT\n", argv[0]);
    return 2;
  }
  long bytes = 0;
  void *in = readAll(argv[2], &bytes);
  if (strcmp(argv[1], "quantize") == 0) {
    unsigned n = (unsigned)(bytes / sizeof(float));
    int8_t *q = malloc(n ? n : 1);
    vmcu_quantize_input((const float *)in, q, n);
    writeAll(argv[3], q, n);
  } else {
    unsigned n = (unsigned)bytes;
    float *y = malloc((n ? n : 1) * sizeof(float));
    vmcu_dequantize_output((const int8_t *)in, y, n);
    writeAll(argv[3], y, n * sizeof(float));
  }
  return 0;
}
