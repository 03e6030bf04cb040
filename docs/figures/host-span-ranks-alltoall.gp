# re-render: gnuplot host-span-ranks-alltoall.gp
set terminal pngcairo size 800,500 enhanced font 'Sans,10'
set output "host-span-ranks-alltoall.png"
set title "alltoall, 8 B (host cores, wall time)\nfirst start to last end, mean over trials"
set xlabel 'tasks (ranks)'
set ylabel 'time (us)'
set logscale y
set grid
set key top left
set xtics (4, 9, 16)
set datafile missing 'NaN'
plot "host-span-ranks-alltoall.dat" using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#1f77b4' title "mesh\\_rounds", \
     "host-span-ranks-alltoall.dat" using 1:3 with linespoints lw 2 pt 2 dt 2 lc rgb '#d62728' title "linear", \
     "host-span-ranks-alltoall.dat" using 1:4 with linespoints lw 2 pt 3 dt 2 lc rgb '#2ca02c' title "bruck", \
     "host-span-ranks-alltoall.dat" using 1:5 with linespoints lw 2 pt 4 dt 2 lc rgb '#ff7f0e' title "pairwise"
