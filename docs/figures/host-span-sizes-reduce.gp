# re-render: gnuplot host-span-sizes-reduce.gp
set terminal pngcairo size 900,550 enhanced font 'Sans,10'
set output "host-span-sizes-reduce.png"
set title "reduce: time against message size (host cores, wall time)\nfirst start to last end, mean over trials"
set xlabel 'message size (bytes)'
set ylabel 'time (us)'
set logscale xy 2
set format x '2^{%L}'
set format y '10^{%T}'
set logscale y 10
set grid
set key outside right top
plot "host-span-sizes-reduce.dat" index 0 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#1f77b4' title "mesh\\_tree 4", \
     "host-span-sizes-reduce.dat" index 1 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#d62728' title "mesh\\_tree 9", \
     "host-span-sizes-reduce.dat" index 2 using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#2ca02c' title "mesh\\_tree 16", \
     "host-span-sizes-reduce.dat" index 3 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#1f77b4' title "binomial 4", \
     "host-span-sizes-reduce.dat" index 4 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#d62728' title "binomial 9", \
     "host-span-sizes-reduce.dat" index 5 using 1:2 with linespoints lw 2 pt 2 dt 2 lc rgb '#2ca02c' title "binomial 16"
