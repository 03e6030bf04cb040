set terminal pngcairo size 640,420
set output 'lee1999-life.png'
set title 'LIFE on 8x8 cells: speedup over one node ([Lee 1999] 7.2)'
set xlabel 'nodes'
set ylabel 'speedup'
set logscale x 2
set key top left
plot 'lee1999-life.dat' using 1:2 with linespoints dt 2 title 'LOG model (thesis parameters)', \
     'lee1999-life.dat' using 1:3 with linespoints title 'tilempi (mmachine adapter, 8x8 mesh)', \
     'lee1999-life.dat' using 1:4 with linespoints title 'tilempi (zero-latency network)', \
     '-' using 1:2 with points pt 7 title 'thesis, measured'
4 4
16 8
64 12
e
