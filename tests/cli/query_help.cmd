query
--help
