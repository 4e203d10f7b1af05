probe
--epd
no-such-file.epd
