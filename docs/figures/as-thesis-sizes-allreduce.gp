# re-render: gnuplot as-thesis-sizes-allreduce.gp
set terminal pngcairo size 900,550 enhanced font 'Sans,10'
set output "as-thesis-sizes-allreduce.png"
set title "allreduce: time against message size (sim, tilepro64 preset, udn, ilib adapters)\nslowest rank's own time, mean over trials"
set xlabel 'message size (bytes)'
set ylabel 'time (us)'
set logscale xy 2
set format x '2^{%L}'
set format y '10^{%T}'
set logscale y 10
set grid
set key outside right top
plot "as-thesis-sizes-allreduce.dat" index 0 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#1f77b4' title "mesh\\_reduce\\_bcast (udn) 4", \
     "as-thesis-sizes-allreduce.dat" index 1 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#d62728' title "mesh\\_reduce\\_bcast (udn) 9", \
     "as-thesis-sizes-allreduce.dat" index 2 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#2ca02c' title "mesh\\_reduce\\_bcast (udn) 16", \
     "as-thesis-sizes-allreduce.dat" index 3 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#ff7f0e' title "mesh\\_reduce\\_bcast (udn) 25", \
     "as-thesis-sizes-allreduce.dat" index 4 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#9467bd' title "mesh\\_reduce\\_bcast (udn) 36", \
     "as-thesis-sizes-allreduce.dat" index 5 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#8c564b' title "mesh\\_reduce\\_bcast (udn) 49", \
     "as-thesis-sizes-allreduce.dat" index 6 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#1f77b4' title "reduce\\_bcast (ilib) 4", \
     "as-thesis-sizes-allreduce.dat" index 7 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#d62728' title "reduce\\_bcast (ilib) 9", \
     "as-thesis-sizes-allreduce.dat" index 8 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#2ca02c' title "reduce\\_bcast (ilib) 16", \
     "as-thesis-sizes-allreduce.dat" index 9 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#ff7f0e' title "reduce\\_bcast (ilib) 25", \
     "as-thesis-sizes-allreduce.dat" index 10 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#9467bd' title "reduce\\_bcast (ilib) 36", \
     "as-thesis-sizes-allreduce.dat" index 11 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#8c564b' title "reduce\\_bcast (ilib) 49"
