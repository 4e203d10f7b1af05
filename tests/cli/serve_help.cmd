serve
--help
