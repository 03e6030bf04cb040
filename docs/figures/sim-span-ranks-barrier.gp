# re-render: gnuplot sim-span-ranks-barrier.gp
set terminal pngcairo size 800,500 enhanced font 'Sans,10'
set output "sim-span-ranks-barrier.png"
set title "barrier (sim, tilepro64 preset, udn adapter)\nfirst start to last end, mean over trials"
set xlabel 'tasks (ranks)'
set ylabel 'time (us)'
set logscale y
set grid
set key top left
set xtics (4, 9, 16, 25, 36, 49)
set datafile missing 'NaN'
plot "sim-span-ranks-barrier.dat" using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#1f77b4' title "ktree", \
     "sim-span-ranks-barrier.dat" using 1:3 with linespoints lw 2 pt 2 dt 1 lc rgb '#d62728' title "ktree:2", \
     "sim-span-ranks-barrier.dat" using 1:4 with linespoints lw 2 pt 3 dt 1 lc rgb '#2ca02c' title "ktree:4", \
     "sim-span-ranks-barrier.dat" using 1:5 with linespoints lw 2 pt 4 dt 1 lc rgb '#ff7f0e' title "ktree\\_static", \
     "sim-span-ranks-barrier.dat" using 1:6 with linespoints lw 2 pt 5 dt 2 lc rgb '#9467bd' title "linear", \
     "sim-span-ranks-barrier.dat" using 1:7 with linespoints lw 2 pt 6 dt 2 lc rgb '#8c564b' title "dissemination", \
     "sim-span-ranks-barrier.dat" using 1:8 with linespoints lw 2 pt 7 dt 2 lc rgb '#e377c2' title "recursive\\_doubling"
