/* Sample program for program_image_test: state that must be private to each loaded copy. */
static int ctor_runs; /* counts this copy's constructor runs */
int sample_counter;   /* a global */

__attribute__((constructor)) static void sample_init(void) { ++ctor_runs; }

/* Exported when linked with -rdynamic: lets the test read the copy's state. */
int sample_ctor_runs(void) { return ctor_runs; }
int sample_bump(void) { return ++sample_counter; }

int main(int argc, char** argv) {
  (void)argv;
  static int calls; /* a static local */
  ++calls;
  ++sample_counter;
  /* The first call in a fresh copy returns 111; argc lets the test ask for the counter alone. */
  if (argc > 1) return sample_counter;
  return sample_counter * 100 + calls * 10 + ctor_runs;
}
