/* Sample program for program_image_test: reads libc's variables environ and optind directly.
   Compiled -fPIE, the executable holds them through copy relocations; compiled -fPIC, it
   reads them through the GOT and has none. */
#include <unistd.h>

extern char** environ;

int main(void) {
  int n = 0;
  for (char** e = environ; e && *e; ++e) ++n;
  return n + optind;
}
