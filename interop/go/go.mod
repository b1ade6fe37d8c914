module pqkit.invalid/interop/gopeer

go 1.26
