bench
frobnicate
