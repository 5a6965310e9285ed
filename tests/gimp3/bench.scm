;; SPDX-License-Identifier: GPL-3.0-or-later
;; GIMP 3's whole-call benchmark (tools/bench-gimp3.sh): in one session,
;; each call on a fresh duplicate of an RGB 8-bit photograph, the median of
;; `repeats` calls, as lines "bench3 WIDTHxHEIGHT CALL SIGMA SECONDS".

(define (now)
  (let ((t (gettimeofday)))
    (+ (car t) (/ (cadr t) 1000000.0))))

(define (insert x sorted)
  (cond ((null? sorted) (list x))
        ((<= x (car sorted)) (cons x sorted))
        (else (cons (car sorted) (insert x (cdr sorted))))))

(define (median xs)
  (let ((s (let loop ((xs xs) (acc '()))
             (if (null? xs) acc (loop (cdr xs) (insert (car xs) acc))))))
    (list-ref s (quotient (length s) 2))))

(define (first-drawable img)
  (vector-ref (car (gimp-image-get-selected-drawables img)) 0))

(define (time-call base call sigma)
  (let* ((img (car (gimp-image-duplicate base)))
         (d (first-drawable img))
         (t0 (now)))
    (call img d sigma)
    (let ((dt (- (now) t0)))
      (gimp-image-delete img)
      dt)))

(define (op-call name . props)
  (lambda (img d sigma)
    (apply gimp-drawable-merge-new-filter
           (append (list d name "" LAYER-MODE-REPLACE 1.0) props
                   (list "std-dev-x" sigma "std-dev-y" sigma)))))

(define calls
  (list (list "ours-op" (op-call "cudablur:gaussian-blur"))
        (list "ours-op-cpu" (op-call "cudablur:gaussian-blur" "device" "cpu"))
        (list "ours-plug-in"
              (lambda (img d sigma)
                (plug-in-cudablur #:run-mode RUN-NONINTERACTIVE #:image img
                                  #:drawables (vector d) #:algorithm 0
                                  #:std-dev-x sigma #:std-dev-y sigma
                                  #:device 0)))
        (list "gimp-gaussian-blur" (op-call "gegl:gaussian-blur"))
        (list "floor-invert-gamma"
              (lambda (img d sigma)
                (gimp-drawable-merge-new-filter d "gegl:invert-gamma" ""
                                                LAYER-MODE-REPLACE 1.0)))))

(define (bench3 photo sizes sigmas repeats)
  (for-each
    (lambda (size)
      (let* ((base (car (gimp-file-load RUN-NONINTERACTIVE photo)))
             (w (car size)) (h (cadr size)))
        (gimp-image-scale base w h)
        ;; A warm-up call of each: start-up costs are not the call's.
        (for-each (lambda (c) (time-call base (cadr c) 3.0)) calls)
        (for-each
          (lambda (sigma)
            (for-each
              (lambda (c)
                (let loop ((i 0) (times '()))
                  (if (< i repeats)
                      (loop (+ i 1) (cons (time-call base (cadr c) sigma) times))
                      (gimp-message
                        (string-append "bench3 " (number->string w) "x"
                                       (number->string h) " " (car c) " "
                                       (number->string sigma) " "
                                       (number->string (median times)))))))
              calls))
          sigmas)
        (gimp-image-delete base)))
    sizes))
