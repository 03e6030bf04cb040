/* Sample program for program_image_test: has a thread-local variable (PT_TLS). */
__thread int sample_tls = 5;

int main(void) { return ++sample_tls; }
