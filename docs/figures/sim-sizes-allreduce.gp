# re-render: gnuplot sim-sizes-allreduce.gp
set terminal pngcairo size 900,550 enhanced font 'Sans,10'
set output "sim-sizes-allreduce.png"
set title "allreduce: time against message size (sim, tilepro64 preset, udn adapter)\nslowest rank's own time, mean over trials"
set xlabel 'message size (bytes)'
set ylabel 'time (us)'
set logscale xy 2
set format x '2^{%L}'
set format y '10^{%T}'
set logscale y 10
set grid
set key outside right top
plot "sim-sizes-allreduce.dat" index 0 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#1f77b4' title "mesh\\_reduce\\_bcast 4", \
     "sim-sizes-allreduce.dat" index 1 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#d62728' title "mesh\\_reduce\\_bcast 9", \
     "sim-sizes-allreduce.dat" index 2 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#2ca02c' title "mesh\\_reduce\\_bcast 16", \
     "sim-sizes-allreduce.dat" index 3 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#ff7f0e' title "mesh\\_reduce\\_bcast 25", \
     "sim-sizes-allreduce.dat" index 4 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#9467bd' title "mesh\\_reduce\\_bcast 36", \
     "sim-sizes-allreduce.dat" index 5 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#8c564b' title "mesh\\_reduce\\_bcast 49", \
     "sim-sizes-allreduce.dat" index 6 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#1f77b4' title "recursive\\_doubling 4", \
     "sim-sizes-allreduce.dat" index 7 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#d62728' title "recursive\\_doubling 9", \
     "sim-sizes-allreduce.dat" index 8 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#2ca02c' title "recursive\\_doubling 16", \
     "sim-sizes-allreduce.dat" index 9 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#ff7f0e' title "recursive\\_doubling 25", \
     "sim-sizes-allreduce.dat" index 10 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#9467bd' title "recursive\\_doubling 36", \
     "sim-sizes-allreduce.dat" index 11 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#8c564b' title "recursive\\_doubling 49"
