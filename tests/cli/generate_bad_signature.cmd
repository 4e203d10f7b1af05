generate
KXk
