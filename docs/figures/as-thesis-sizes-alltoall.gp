# re-render: gnuplot as-thesis-sizes-alltoall.gp
set terminal pngcairo size 900,550 enhanced font 'Sans,10'
set output "as-thesis-sizes-alltoall.png"
set title "alltoall: time against message size (sim, tilepro64 preset, udn, ilib adapters)\nslowest rank's own time, mean over trials"
set xlabel 'message size (bytes)'
set ylabel 'time (us)'
set logscale xy 2
set format x '2^{%L}'
set format y '10^{%T}'
set logscale y 10
set grid
set key outside right top
plot "as-thesis-sizes-alltoall.dat" index 0 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#1f77b4' title "mesh\\_rounds (udn) 4", \
     "as-thesis-sizes-alltoall.dat" index 1 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#d62728' title "mesh\\_rounds (udn) 9", \
     "as-thesis-sizes-alltoall.dat" index 2 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#2ca02c' title "mesh\\_rounds (udn) 16", \
     "as-thesis-sizes-alltoall.dat" index 3 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#ff7f0e' title "mesh\\_rounds (udn) 25", \
     "as-thesis-sizes-alltoall.dat" index 4 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#9467bd' title "mesh\\_rounds (udn) 36", \
     "as-thesis-sizes-alltoall.dat" index 5 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#8c564b' title "mesh\\_rounds (udn) 49", \
     "as-thesis-sizes-alltoall.dat" index 6 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#1f77b4' title "operampi (ilib) 4", \
     "as-thesis-sizes-alltoall.dat" index 7 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#d62728' title "operampi (ilib) 9", \
     "as-thesis-sizes-alltoall.dat" index 8 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#2ca02c' title "operampi (ilib) 16", \
     "as-thesis-sizes-alltoall.dat" index 9 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#ff7f0e' title "operampi (ilib) 25", \
     "as-thesis-sizes-alltoall.dat" index 10 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#9467bd' title "operampi (ilib) 36", \
     "as-thesis-sizes-alltoall.dat" index 11 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#8c564b' title "operampi (ilib) 49", \
     "as-thesis-sizes-alltoall.dat" index 12 using 1:2 with linespoints lw 2 pt 3 dt 3 lc rgb '#1f77b4' title "pairwise (ilib) 4", \
     "as-thesis-sizes-alltoall.dat" index 13 using 1:2 with linespoints lw 2 pt 3 dt 3 lc rgb '#d62728' title "pairwise (ilib) 9", \
     "as-thesis-sizes-alltoall.dat" index 14 using 1:2 with linespoints lw 2 pt 3 dt 3 lc rgb '#2ca02c' title "pairwise (ilib) 16", \
     "as-thesis-sizes-alltoall.dat" index 15 using 1:2 with linespoints lw 2 pt 3 dt 3 lc rgb '#ff7f0e' title "pairwise (ilib) 25", \
     "as-thesis-sizes-alltoall.dat" index 16 using 1:2 with linespoints lw 2 pt 3 dt 3 lc rgb '#9467bd' title "pairwise (ilib) 36", \
     "as-thesis-sizes-alltoall.dat" index 17 using 1:2 with linespoints lw 2 pt 3 dt 3 lc rgb '#8c564b' title "pairwise (ilib) 49"
