# re-render: gnuplot sim-ranks-allreduce.gp
set terminal pngcairo size 800,500 enhanced font 'Sans,10'
set output "sim-ranks-allreduce.png"
set title "allreduce, 8 B (sim, tilepro64 preset, udn adapter)\nslowest rank's own time, mean over trials"
set xlabel 'tasks (ranks)'
set ylabel 'time (us)'
set logscale y
set grid
set key top left
set xtics (4, 9, 16, 25, 36, 49)
set datafile missing 'NaN'
plot "sim-ranks-allreduce.dat" using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#1f77b4' title "mesh\\_reduce\\_bcast", \
     "sim-ranks-allreduce.dat" using 1:3 with linespoints lw 2 pt 2 dt 2 lc rgb '#d62728' title "linear", \
     "sim-ranks-allreduce.dat" using 1:4 with linespoints lw 2 pt 3 dt 2 lc rgb '#2ca02c' title "rabenseifner", \
     "sim-ranks-allreduce.dat" using 1:5 with linespoints lw 2 pt 4 dt 2 lc rgb '#ff7f0e' title "recursive\\_doubling"
