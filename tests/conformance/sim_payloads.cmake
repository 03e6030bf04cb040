# Messages of 0 to 40 bytes, around the sim's inline payloads (16 bytes and less travel in the
# transport's records, not the sender's arena): contents, counts, unexpected and posted first,
# synchronous, any source, a strided datatype. Every transport, ranks as contexts and processes.
tilempi_add_conformance_test(NAME sim_payloads_small NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/sim_payloads_small.c)
