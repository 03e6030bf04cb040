# re-render: gnuplot topology-halo-27.gp
set terminal pngcairo size 900,500 enhanced font 'Sans,10'
set output "topology-halo-27.png"
set title "27-point halo exchange, 4 KiB blocks (sim, tilepro64 preset, udn adapter, --compute none)"
set ylabel 'modeled time per iteration (us)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set yrange [0:*]
set key top left
set xtics rotate by -25
plot "topology-halo-27.dat" using 2:xtic(1) title 'point-to-point', '' using 3 title 'MPI\_Neighbor\_alltoall, linear', '' using 4 title 'MPI\_Neighbor\_alltoall, mesh\_rounds'
