"""The web viewer (`filings serve`): routes in :mod:`filings.web.app`, pages in ``templates/``."""
