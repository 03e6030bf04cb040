/* The counter a program built with the opcount plugin adds its operations to (opcount_plugin.cpp):
 * [0] integer operations, [1] floating-point operations. The wrappers link this archive into the
 * program itself, not into libtilempi.so, so that each copy of the program image (one per rank of
 * the simulator) has its own counter. It is exported (the wrappers' -Wl,--export-dynamic-symbol)
 * so that the simulator finds each copy's counter by name. */
unsigned long long tilempi_op_counts[2];
