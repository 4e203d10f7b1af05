probe
--epd
-
