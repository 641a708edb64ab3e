import { Outlet } from 'react-router';

// The signed-in shell (sidebar, top bar, auth guard) arrives with the auth issue.
export default function AppLayout() {
  return (
    <main className="min-h-screen">
      <Outlet />
    </main>
  );
}
