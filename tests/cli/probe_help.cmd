probe
--help
