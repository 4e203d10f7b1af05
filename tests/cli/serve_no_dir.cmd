serve
--dir
no-such-directory
