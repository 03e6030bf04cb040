# re-render: gnuplot sim-span-sizes-alltoall.gp
set terminal pngcairo size 900,550 enhanced font 'Sans,10'
set output "sim-span-sizes-alltoall.png"
set title "alltoall: time against message size (sim, tilepro64 preset, udn adapter)\nfirst start to last end, mean over trials"
set xlabel 'message size (bytes)'
set ylabel 'time (us)'
set logscale xy 2
set format x '2^{%L}'
set format y '10^{%T}'
set logscale y 10
set grid
set key outside right top
plot "sim-span-sizes-alltoall.dat" index 0 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#1f77b4' title "mesh\\_rounds 4", \
     "sim-span-sizes-alltoall.dat" index 1 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#d62728' title "mesh\\_rounds 9", \
     "sim-span-sizes-alltoall.dat" index 2 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#2ca02c' title "mesh\\_rounds 16", \
     "sim-span-sizes-alltoall.dat" index 3 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#ff7f0e' title "mesh\\_rounds 25", \
     "sim-span-sizes-alltoall.dat" index 4 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#9467bd' title "mesh\\_rounds 36", \
     "sim-span-sizes-alltoall.dat" index 5 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#8c564b' title "mesh\\_rounds 49", \
     "sim-span-sizes-alltoall.dat" index 6 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#1f77b4' title "linear 4", \
     "sim-span-sizes-alltoall.dat" index 7 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#d62728' title "linear 9", \
     "sim-span-sizes-alltoall.dat" index 8 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#2ca02c' title "linear 16", \
     "sim-span-sizes-alltoall.dat" index 9 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#ff7f0e' title "linear 25", \
     "sim-span-sizes-alltoall.dat" index 10 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#9467bd' title "linear 36", \
     "sim-span-sizes-alltoall.dat" index 11 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#8c564b' title "linear 49"
