/* Stands in for runtime/harness.c in vmcu-run's timeout test: never
 * finishes. */
int main(void) {
  for (volatile int spin = 0;; ++spin) {
  }
}
