# re-render: gnuplot as-thesis-ranks-reduce.gp
set terminal pngcairo size 800,500 enhanced font 'Sans,10'
set output "as-thesis-ranks-reduce.png"
set title "reduce, 8 B (sim, tilepro64 preset, udn, ilib adapters)\nslowest rank's own time, mean over trials"
set xlabel 'tasks (ranks)'
set ylabel 'time (us)'
set logscale y
set grid
set key top left
set xtics (4, 9, 16, 25, 36, 49)
set datafile missing 'NaN'
plot "as-thesis-ranks-reduce.dat" using 1:2 with linespoints lw 2 pt 1 dt 1 lc rgb '#1f77b4' title "mesh\\_tree (udn)", \
     "as-thesis-ranks-reduce.dat" using 1:3 with linespoints lw 2 pt 2 dt 2 lc rgb '#d62728' title "binomial (ilib)"
