from kiosk.cli import main

raise SystemExit(main())
