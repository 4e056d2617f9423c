from pokertui.cli import main

raise SystemExit(main())
