;; SPDX-License-Identifier: GPL-3.0-or-later
; The whole-call benchmark in one GIMP session (tools/bench-gimp.sh runs
; it): plug-in-cudablur against GIMP's own plug-in-gauss (and, for the
; edge-aware filter, plug-in-sel-gauss) on the same images, each call on a
; fresh duplicate, timed by the test helper's clock procedure.  Prints one
; "bench-row:" line per call; the plug-in prints its stages on stderr
; (CUDABLUR_TIMING) before each of its rows.

(define bench-reps 3)

(define (bench-clock) (car (cudablur-test-clock RUN-NONINTERACTIVE)))

(define (bench-num x) (number->string x))

; Times thunk (called with a fresh duplicate and its drawable, after
; prepare) reps times; a row per call.
(define (bench-row label img prepare thunk)
  (let loop ((i 0))
    (if (< i bench-reps)
        (let* ((dup (car (gimp-image-duplicate img)))
               (d (car (gimp-image-get-active-drawable dup))))
          (prepare dup)
          (let* ((t0 (bench-clock))
                 (out (thunk dup d))
                 (t1 (bench-clock)))
            (gimp-message (string-append "bench-row: " label
                                         " used=" (bench-num out)
                                         " rep=" (bench-num i)
                                         " seconds=" (bench-num (- t1 t0)))))
          (gimp-image-delete dup)
          (loop (+ i 1))))))

(define (bench-whole dup) #t)

; A centred square selection of the given side.
(define (bench-square side)
  (lambda (dup)
    (gimp-image-select-rectangle dup CHANNEL-OP-REPLACE
                                 (- (/ (car (gimp-image-width dup)) 2) (/ side 2))
                                 (- (/ (car (gimp-image-height dup)) 2) (/ side 2))
                                 side side)))

(define (bench-gimp-gauss img label prepare sigma)
  (bench-row (string-append label " call=gimp-gauss algorithm=gegl sigma="
                            (bench-num sigma) " device=-")
             img prepare
             (lambda (dup d)
               ; plug-in-gauss takes a radius; GIMP converts it back to the
               ; standard deviation as radius * 0.32.
               (plug-in-gauss RUN-NONINTERACTIVE dup d (/ sigma 0.32)
                              (/ sigma 0.32) 0)
               0)))

(define (bench-ours img label prepare algorithm name sigma device)
  (bench-row (string-append label " call=ours algorithm=" name " sigma="
                            (bench-num sigma) " device=" (bench-num device))
             img prepare
             (lambda (dup d)
               (car (plug-in-cudablur RUN-NONINTERACTIVE dup d algorithm
                                      sigma sigma 50.0 2 2.0 device)))))

(define (bench-image img label quick)
  (let ((sigmas (if quick '(10) '(2 10 50))))
    (for-each
      (lambda (s)
        (bench-gimp-gauss img label bench-whole s)
        (for-each (lambda (dev) (bench-ours img label bench-whole 0 "auto" s dev))
                  '(0 1 2)))
      sigmas)
    (bench-ours img label bench-whole 4 "deriche" 50 0)
    (bench-ours img label bench-whole 6 "edge-aware-partitioned" 50 0)))

(define (bench-selection img label)
  (let ((sel (string-append label "+sel64")))
    (bench-gimp-gauss img sel (bench-square 64) 5)
    (for-each (lambda (dev) (bench-ours img sel (bench-square 64) 0 "auto" 5 dev))
              '(0 1 2)))
  ; GIMP's selective Gaussian is O(radius^2) per pixel: at sigma 50
  ; (radius 156) a 24 Mpx image takes hours, so it runs on a selection.
  (let ((sel (string-append label "+sel256")))
    (bench-row (string-append sel " call=gimp-sel-gauss algorithm=gegl "
                              "sigma=50 device=-")
               img (bench-square 256)
               (lambda (dup d)
                 (plug-in-sel-gauss RUN-NONINTERACTIVE dup d (/ 50 0.32) 50)
                 0))
    (bench-ours img sel (bench-square 256) 6 "edge-aware-partitioned" 50 0)))

(define (bench-load file w h)
  (let* ((img (car (gimp-file-load RUN-NONINTERACTIVE file file))))
    (if (not (= (car (gimp-image-base-type img)) RGB))
        (gimp-image-convert-rgb img))
    (gimp-image-flatten img)
    (gimp-image-scale-full img w h INTERPOLATION-CUBIC)
    img))

(define (cudablur-bench photo reps quick)
  (set! bench-reps reps)
  (gimp-message (string-append "bench-start: " photo))
  (let ((sizes (if quick '((3840 2160)) '((3840 2160) (6000 4000)))))
    (for-each
      (lambda (size)
        (let* ((w (car size)) (h (cadr size))
               (img (bench-load photo w h))
               (label (string-append "image=" (bench-num w) "x" (bench-num h))))
          ; The session's first call of each, in rows of their own, so
          ; that one-off start-up (the resident's GEGL, CUDA's context,
          ; GEGL's operations) shows without moving the medians below.
          (let ((reps bench-reps))
            (set! bench-reps 1)
            (bench-ours img (string-append label "+first") bench-whole 0
                        "auto" 3 0)
            (bench-gimp-gauss img (string-append label "+first") bench-whole 3)
            (set! bench-reps reps))
          (bench-image img label quick)
          (if (= w (car (car (reverse sizes))))
              (bench-selection img label))
          (gimp-image-delete img)))
      sizes))
  (gimp-message "bench-done"))
