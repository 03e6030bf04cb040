/* A shared library built with the opcount plugin (counted_shared_lib.c). */
double counted_library_work(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return s;
}
