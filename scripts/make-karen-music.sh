#!/usr/bin/env bash
# Makes public/audio/karen-mode.{mp3,ogg}: a 16-second, seamlessly looping
# disco-ish tune synthesised from nothing with sox (so it is free of any
# licence), encoded with ffmpeg. Needs Debian's sox and ffmpeg.
# To use your own song instead, see "Karen Mode" in docs/family-guide.md.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rate=44100
eighth=0.25   # 120 beats a minute

note() { # name duration output
  sox -n -r $rate -c 1 "$3" synth "$2" pluck "$1" fade 0 "$2" 0.05 gain -6
}
kick() {
  sox -n -r $rate -c 1 "$1" synth 0.25 sine 90:40 fade 0 0.25 0.2 gain -2
}
hat() {
  sox -n -r $rate -c 1 "$1" synth 0.25 whitenoise highpass 7000 fade 0 0.06 0.05 pad 0 0.19 gain -14
}

# Four chords of eight arpeggiated eighths each: C, A minor, F, G.
chords=("C4 E4 G4 C5 G4 E4 G4 E4" "A3 C4 E4 A4 E4 C4 E4 C4" "F3 A3 C4 F4 C4 A3 C4 A3" "G3 B3 D4 G4 D4 B3 D4 B3")
basses=("C2" "A1" "F1" "G1")
kick "$work/kick.wav"
hat "$work/hat.wav"
sox -n -r $rate -c 1 "$work/rest.wav" trim 0 $eighth
bar_files=()
for i in 0 1 2 3; do
  arp_files=()
  j=0
  for n in ${chords[$i]}; do
    note "$n" $eighth "$work/arp-$i-$j.wav"
    arp_files+=("$work/arp-$i-$j.wav")
    j=$((j + 1))
  done
  sox "${arp_files[@]}" "$work/arp-$i.wav"
  note "${basses[$i]}" 1 "$work/bass-$i-a.wav"
  note "${basses[$i]}" 1 "$work/bass-$i-b.wav"
  sox "$work/bass-$i-a.wav" "$work/bass-$i-b.wav" "$work/bass-$i.wav"
  # Kick on every beat, hi-hat on every off-beat.
  sox "$work/kick.wav" "$work/hat.wav" "$work/kick.wav" "$work/hat.wav" "$work/kick.wav" "$work/hat.wav" "$work/kick.wav" "$work/hat.wav" "$work/drums-$i.wav"
  sox -m "$work/arp-$i.wav" "$work/bass-$i.wav" "$work/drums-$i.wav" "$work/bar-$i.wav"
  bar_files+=("$work/bar-$i.wav")
done
sox "${bar_files[@]}" "${bar_files[@]}" "$work/loop.wav" norm -3
ffmpeg -v error -y -i "$work/loop.wav" -ac 2 -c:a libmp3lame -b:a 96k public/audio/karen-mode.mp3
ffmpeg -v error -y -i "$work/loop.wav" -ac 2 -c:a libvorbis -q:a 3 public/audio/karen-mode.ogg
ls -l public/audio/karen-mode.mp3 public/audio/karen-mode.ogg
