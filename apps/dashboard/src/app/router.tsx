import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AuthPage } from '../features/auth/auth-page';
import { AppLayout } from './app-layout';
import { NotFoundPage } from '../ui/not-found-page';
import { ProjectLayout } from './project-layout';
import { RequireSession } from './require-session';
import { Loading } from '../ui/states';
import { RouteError } from './route-error';

/**
 * The routes of docs/dashboard.md. Only the sign-in page is in the first bundle; every page after it
 * loads on demand (the budget is 150 KB of gzipped JavaScript for /login, and the Workshop is heavy).
 */
export const routes: RouteObject[] = [
  { path: '/login', element: <AuthPage mode="login" /> },
  { path: '/signup', element: <AuthPage mode="signup" /> },
  {
    element: <RequireSession />,
    errorElement: <RouteError />,
    // Shown while the first page's lazy chunk loads.
    hydrateFallbackElement: <Loading />,
    children: [
      {
        element: <AppLayout />,
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to="/projects" replace /> },
          { path: 'projects', lazy: () => import('../features/projects/projects-page').then((m) => ({ Component: m.ProjectsPage })) },
          {
            path: 'projects/:projectId',
            element: <ProjectLayout />,
            children: [
              { index: true, element: <Navigate to="endpoints" replace /> },
              { path: 'endpoints', lazy: () => import('../features/endpoints/endpoints-page').then((m) => ({ Component: m.EndpointsPage })) },
              {
                path: 'endpoints/:endpointId',
                lazy: () => import('../features/workshop/workshop-page').then((m) => ({ Component: m.WorkshopPage })),
              },
              { path: 'functions', lazy: () => import('../features/functions/functions-page').then((m) => ({ Component: m.FunctionsPage })) },
              {
                path: 'functions/:functionId',
                lazy: () => import('../features/workshop/workshop-page').then((m) => ({ Component: m.FunctionWorkshopPage })),
              },
              { path: 'schedules', lazy: () => import('../features/schedules/schedules-page').then((m) => ({ Component: m.SchedulesPage })) },
              {
                path: 'schedules/:scheduleId',
                lazy: () => import('../features/workshop/workshop-page').then((m) => ({ Component: m.ScheduleWorkshopPage })),
              },
              { path: 'data', lazy: () => import('../features/data/data-page').then((m) => ({ Component: m.DataPage })) },
              { path: 'data/:tableId', lazy: () => import('../features/data/table-page').then((m) => ({ Component: m.TablePage })) },
              { path: 'keys', lazy: () => import('../features/keys/keys-page').then((m) => ({ Component: m.KeysPage })) },
              { path: 'logs', lazy: () => import('../features/logs/logs-page').then((m) => ({ Component: m.LogsPage })) },
              { path: 'settings', lazy: () => import('../features/settings/settings-page').then((m) => ({ Component: m.SettingsPage })) },
              { path: 'docs', lazy: () => import('../features/docs/api-docs-page').then((m) => ({ Component: m.ApiDocsPage })) },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
