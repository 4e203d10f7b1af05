probe
