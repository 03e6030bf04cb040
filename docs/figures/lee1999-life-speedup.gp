set terminal pngcairo size 760,440
set output 'lee1999-life-speedup.png'
set title 'LIFE, 64 cells: speedup (Lee 1999, Fig. 7-12); dashed: LOG model' noenhanced
set xlabel 'nodes'
set ylabel 'speedup over one node'
set logscale x 2
set xtics (1, 4, 16, 64)
set xrange [0.9:90]
set key outside right
plot 'lee1999-life-speedup.dat' using 1:2 with lines dt 2 lc 1 notitle, 'lee1999-life-speedup.dat' using 1:3 with linespoints lc 1 pt 7 title '+0 occupancy', 'lee1999-life-speedup.dat' using 1:4 with lines dt 2 lc 2 notitle, 'lee1999-life-speedup.dat' using 1:5 with linespoints lc 2 pt 7 title '+25 occupancy', 'lee1999-life-speedup.dat' using 1:6 with lines dt 2 lc 3 notitle, 'lee1999-life-speedup.dat' using 1:7 with linespoints lc 3 pt 7 title '+50 occupancy', 'lee1999-life-speedup.dat' using 1:8 with lines dt 2 lc 4 notitle, 'lee1999-life-speedup.dat' using 1:9 with linespoints lc 4 pt 7 title '+100 occupancy', 'lee1999-life-speedup.dat' using 1:10 with lines dt 2 lc 5 notitle, 'lee1999-life-speedup.dat' using 1:11 with linespoints lc 5 pt 7 title '+100 latency', 'lee1999-life-speedup.dat' using 1:12 with lines dt 2 lc 6 notitle, 'lee1999-life-speedup.dat' using 1:13 with linespoints lc 6 pt 7 title '+200 latency'
