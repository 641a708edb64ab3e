import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { SETTINGS_MENU } from '~/lib/navigation';
import { cn } from '~/lib/utils';

export default function SettingsLayout() {
  const strip = useRef<HTMLUListElement>(null);
  const { pathname } = useLocation();
  // On a phone the menu is a strip that scrolls sideways: bring the current tab into view.
  useEffect(() => {
    strip.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'center' });
  }, [pathname]);
  return (
    <div className="mx-auto max-w-6xl">
      <h1 className="mb-6 text-2xl font-bold tracking-tight">Settings</h1>
      <div className="flex flex-col gap-6 md:flex-row">
        <nav aria-label="Settings" className="md:w-48 md:shrink-0">
          <ul ref={strip} className="flex gap-1 overflow-x-auto md:flex-col">
            {SETTINGS_MENU.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  className={({ isActive }) =>
                    cn(
                      'block whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium',
                      isActive ? 'bg-accent text-primary' : 'hover:bg-muted',
                    )
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <section className="min-w-0 flex-1">
          <Outlet />
        </section>
      </div>
    </div>
  );
}
