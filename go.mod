module routecheck

go 1.26.8
